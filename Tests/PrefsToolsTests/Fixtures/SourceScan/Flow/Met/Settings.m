#import <Foundation/Foundation.h>

// A settings object whose setters a macro writes, each storing its parameter boxed: the key's
// type is the parameter's declared type; the loader's fallback (`number ?: @(kDefault…)`)
// ends at the message's next label.

#define SETTING_KEY(Name) static NSString * const k ## Name ## Key = @"met" #Name
#define SETTING_SETTER(name, Name, type) SETTING_KEY(Name); \
- (void) set ## Name: (type) name { \
  [[NSUserDefaults standardUserDefaults] setObject: @(name) forKey: k ## Name ## Key]; \
}

static const BOOL kDefaultSound = YES;
static const double kDefaultVolume = 0.25;

@interface MetSettings : NSObject
@property (nonatomic) BOOL sound;
@property (nonatomic) double volume;
@property (nonatomic, strong) id anything;
@end

@implementation MetSettings

SETTING_SETTER(sound, Sound, BOOL)
SETTING_SETTER(volume, Volume, double)

// Trap: a parameter declared `id` says no type.
- (void)setAnything:(id)anything {
  [[NSUserDefaults standardUserDefaults] setObject:anything forKey:@"metAnything"];
}

- (void)load {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  NSNumber *number;
  number = [defaults objectForKey:kSoundKey];
  [self setValue:number ?: @(kDefaultSound) forKey:@"sound"];
  number = [defaults objectForKey:kVolumeKey];
  [self setValue:number ?: @(kDefaultVolume) forKey:@"volume"];
}

@end
