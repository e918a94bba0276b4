#import "Keys.h"

// User defaults handed in: a parameter, kept in a property by the initializer.
@interface Injected : NSObject
@property (nonatomic, strong) NSUserDefaults *defaults;
@end

@implementation Injected

- (instancetype)initWithDefaults:(NSUserDefaults *)defaults {
    if ((self = [super init])) {
        _defaults = defaults;
    }
    return self;
}

- (BOOL)showsBadges {
    return [self.defaults boolForKey:@"showsBadges"];
}

+ (BOOL)isCompactIn:(NSUserDefaults *)defaults {
    return [defaults boolForKey:@"compactLayout"];
}

+ (void)registerIn:(NSUserDefaults *)defaults {
    [defaults registerDefaults:[NSDictionary dictionaryWithObjectsAndKeys:
#ifdef SANDBOXED
        [NSNumber numberWithBool:NO],
#else
        [NSNumber numberWithBool:YES],
#endif
        @"exportsToDesktop",                         // a build flag decides: not written
        [NSNumber numberWithInt:7], @"historyDays",   // after it, the pairs are as written
        nil]];
    [defaults registerDefaults:[NSDictionary dictionaryWithObjects:
        [NSArray arrayWithObjects:[NSNumber numberWithInt:2], @"grid", nil]
        forKeys:[NSArray arrayWithObjects:@"columnCount", @"layoutName", nil]]];
}

@end
