// Keys that reach the defaults call through a parameter: only the call sites hold the literal.
#import <Foundation/Foundation.h>

@interface PrefStore : NSObject
+ (instancetype)shared;
@end

@implementation PrefStore
+ (instancetype)shared { static PrefStore *s; return s; }

// A wrapper: each call's key is a key, typed bool by the getter.
- (BOOL)flagForKey:(NSString *)key {
  return [[NSUserDefaults standardUserDefaults] boolForKey:key];
}

// A wrapper with a fallback parameter: the call's fallback is the key's default.
- (NSInteger)countForKey:(NSString *)key fallback:(NSInteger)fallback {
  NSUserDefaults *d = [NSUserDefaults standardUserDefaults];
  if ([d objectForKey:key] == nil) return fallback;
  return [d integerForKey:key];
}

// Two levels: this method passes a key it builds from its parameter to the wrapper above.
- (BOOL)isFeatureOn:(NSString *)feature {
  return [self flagForKey:[@"feature." stringByAppendingString:feature]];
}
@end

// An object that keeps the key it was made with, and reads it later through the member.
@interface Setting : NSObject
- (instancetype)initWithKey:(NSString *)key defaultValue:(id)value;
@property (readonly) BOOL boolValue;
@end

@implementation Setting {
  NSString *_key;
  id _defaultValue;
}
- (instancetype)initWithKey:(NSString *)key defaultValue:(id)value {
  if ((self = [super init])) {
    _key = [key copy];
    _defaultValue = value;
  }
  return self;
}
- (BOOL)boolValue {
  id stored = [[NSUserDefaults standardUserDefaults] objectForKey:_key];
  return stored ? [stored boolValue] : [_defaultValue boolValue];
}
- (void)setBoolValue:(BOOL)on {
  [[NSUserDefaults standardUserDefaults] setBool:on forKey:_key];
}
@end

// A category property of NSUserDefaults: its getter and setter name the key.
static NSString *const kCompactMode = @"compactMode";

@interface NSUserDefaults (Flow)
@property (nonatomic) BOOL flow_compactMode;
@end

@implementation NSUserDefaults (Flow)
- (BOOL)flow_compactMode { return [self boolForKey:kCompactMode]; }
- (void)setFlow_compactMode:(BOOL)on { [self setBool:on forKey:kCompactMode]; }
@end

@interface Controller : NSObject
@end

@implementation Controller
- (void)load {
  PrefStore *store = [PrefStore shared];
  BOOL flag = [store flagForKey:@"wrapped.flag"];                // bool, no default
  NSInteger count = [store countForKey:@"wrapped.count" fallback:7];  // integer, default 7
  BOOL beta = [store isFeatureOn:@"beta"];                        // feature.beta: bool
  Setting *autoplay = [[Setting alloc] initWithKey:@"autoplay" defaultValue:@YES];  // bool, YES
  BOOL compact = [NSUserDefaults standardUserDefaults].flow_compactMode;  // compactMode: bool
  (void)flag; (void)count; (void)beta; (void)autoplay; (void)compact;
}
@end

// A helper building the shared controller's key path for a binding.
@interface BindingsController : NSObject
@end

@implementation BindingsController
- (NSString *)controllerPathForKey:(NSString *)key {
  return [@"values." stringByAppendingString:key];
}

- (void)awake:(NSButton *)check {
  [check bind:@"value"
       toObject:[NSUserDefaultsController sharedUserDefaultsController]
    withKeyPath:[self controllerPathForKey:@"boundFlag"]  // boundFlag: a binding's key
        options:nil];
}
@end
