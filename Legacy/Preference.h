/*
 * Preference.h -- the preferences model of the legacy iOS app (exmo/equizmo-ios),
 * reconstructed from the project wiki page "Preferências" (seed 002).
 *
 * The wiki shows -save and +load but never the key macros' values.  ASSUMPTION:
 * each macro is a string literal equal to its own name, which is the usual
 * idiom and what the stored files of the app contain (Legacy/Samples).
 *
 * Written for gcc's Objective-C with the GNUstep runtime as well as clang:
 * no ARC, no object literals, explicit @synthesize.
 */
#import <Foundation/Foundation.h>

#define PREFS_SOUND_ENABLED @"PREFS_SOUND_ENABLED"   /* assumed value */
#define PREFS_RANKING_SIZE  @"PREFS_RANKING_SIZE"    /* assumed value */

@interface Preference : NSObject
{
  BOOL      isSoundEnabled;
  NSInteger rankingSize;
}

/* play sounds when an answer is corrected */
@property (nonatomic, assign) BOOL isSoundEnabled;
/* how many users the ranking screen shows */
@property (nonatomic, assign) NSInteger rankingSize;

/* Reads the two keys from [NSUserDefaults standardUserDefaults]; a key that is
 * absent (objectForKey: == nil) gives the default: YES and 5.
 * As on the wiki the instance comes from alloc/init and is returned as is: the
 * original app used ARC; under manual reference counting the caller owns it. */
+ (Preference *) load;

/* setBool:forKey:, setInteger:forKey:, then synchronize. */
- (void) save;

@end
