#import "HDConstants.h"

// The registered defaults: a dictionary a property of the class's own builds in steps and
// returns as a copy, held in a local before it is registered.

@interface HDPreferences : NSObject
@property (readonly, nonatomic) NSDictionary *factoryDefaults;
@end

@implementation HDPreferences {
    NSUserDefaults *userPrefs;
}

- (instancetype)init
{
    if ((self = [super init]) != nil) {
        NSDictionary *defaults = self.factoryDefaults;
        userPrefs = NSUserDefaults.standardUserDefaults;
        [userPrefs registerDefaults:defaults];
    }
    return self;
}

- (NSDictionary *)factoryDefaults
{
    NSMutableDictionary *defaultValues = [[NSMutableDictionary alloc] init];
    NSNumber *boolYes = @YES;
    defaultValues[HDPrefCheckFrequency] = @(HDDefaultCheckFrequency);
    defaultValues[HDPrefReadInterval] = @((float)HDDefaultReadInterval);
    defaultValues[HDPrefStyle] = @"Default";
    defaultValues[@"hd.showBar"] = boolYes;
    return [defaultValues copy];
}

- (NSInteger)checkFrequency { return [userPrefs integerForKey:HDPrefCheckFrequency]; }
- (float)readInterval { return [userPrefs floatForKey:HDPrefReadInterval]; }
- (NSString *)style { return [userPrefs stringForKey:HDPrefStyle]; }
- (BOOL)showBar { return [userPrefs boolForKey:@"hd.showBar"]; }
// Trap: a key nothing registers.
- (NSInteger)layout { return [userPrefs integerForKey:HDPrefLayout]; }

@end
