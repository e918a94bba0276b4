// Keys.h — the keys, as a header names them.
#import <Foundation/Foundation.h>

#define kSoundEnabled   @"soundEnabled"        // a macro
#define kVolumeLevel    kVolume                // a macro naming a macro
#define kVolume         @"volume"
#define kPrefix         @"app."
#define kThemeName      kPrefix @"theme"       // adjacent literals: "app.theme"
#define kSplit          @"split" @"View"       // "splitView"
#define DEFAULTS        [NSUserDefaults standardUserDefaults]

extern NSString *const kUserName;              // defined in Keys.m
FOUNDATION_EXPORT NSString * const kFontSize;  // defined in Keys.m

// A notification's name: a constant like a key, never used with user defaults.
extern NSString *const kSoundDidChangeNotification;
