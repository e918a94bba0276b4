#import "Keys.h"

@interface Store : NSObject
@property (nonatomic, strong) NSUserDefaults *store;   // a property holding user defaults
@end

@implementation Store

- (instancetype)init {
    if ((self = [super init])) {
        _store = [NSUserDefaults standardUserDefaults];
    }
    return self;
}

- (void)save {
    [self.store setBool:NO forKey:@"viaProperty"];
    [DEFAULTS setBool:YES forKey:@"viaMacro"];
    [NSUserDefaults.standardUserDefaults setInteger:1 forKey:@"viaDotSyntax"];
    // Another suite: its keys are listed apart, not in the standard domain's plan.
    NSUserDefaults *shared = [[NSUserDefaults alloc] initWithSuiteName:@"group.com.example.app"];
    [shared setObject:@"token" forKey:@"sharedToken"];
    // Keys built at run time: patterns, never keys.
    NSString *flag = [self currentFlag];
    [DEFAULTS setBool:YES forKey:[NSString stringWithFormat:@"Flag%@Image", flag]];
    [DEFAULTS removeObjectForKey:[@"cache." stringByAppendingString:flag]];
    // Removed only: proposed for drop.
    [DEFAULTS removeObjectForKey:@"obsoleteBanner"];
}

@end

// A category on NSUserDefaults: `self` is user defaults.
@implementation NSUserDefaults (Example)
- (BOOL)prefersLargeText {
    return [self boolForKey:@"largeText"];
}
@end

// A wrapper that takes the key as a parameter: each call with a constant key is a use.
@implementation Settings
+ (BOOL)flagForKey:(NSString *)key fallback:(BOOL)fallback {
    NSUserDefaults *d = [NSUserDefaults standardUserDefaults];
    if ([d objectForKey:key] == nil) {
        return fallback;
    }
    return [d boolForKey:key];
}

+ (void)check {
    BOOL sync = [Settings flagForKey:@"syncEnabled" fallback:YES];
    BOOL beta = [Settings flagForKey:@"betaFeatures" fallback:NO];
    NSLog(@"%d %d", sync, beta);
}
@end
