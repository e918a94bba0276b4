// Registered defaults reached through data flow.
#import <Foundation/Foundation.h>

@interface NSUserDefaults (Registration)
- (void)registerDefaultsFromFile:(NSString *)name;
@end

@implementation NSUserDefaults (Registration)
// A category method loading a bundle file named by its caller.
- (void)registerDefaultsFromFile:(NSString *)name {
  NSString *path = [[NSBundle mainBundle] pathForResource:name ofType:@"plist"];
  [self registerDefaults:[NSDictionary dictionaryWithContentsOfFile:path]];
}
@end

typedef NS_ENUM(NSInteger, FlowMode) {
  FlowModeAsk,
  FlowModeAlways = 4,
  FlowModeAll = FlowModeAsk | FlowModeAlways | 8,
};

@interface AppPrefs : NSObject
@end

@interface AppFactory : NSObject
@property (class, readonly) NSDictionary<NSString *, id> *factoryDefaults;
@end

@implementation AppFactory
// A class property's getter (registered with dot syntax below), its dictionary of a generic
// type made once in a block: reg.list an empty array, reg.limit 1440.
+ (NSDictionary<NSString *, id> *)factoryDefaults {
  static NSDictionary<NSString *, id> *factory = nil;
  static dispatch_once_t once;
  dispatch_once(&once, ^{
    factory = @{ @"reg.list" : @[], @"reg.limit" : @1440 };
  });
  return factory;
}
@end

@implementation AppPrefs
// A dictionary built in steps in a local, returned by a class method.
+ (NSDictionary *)defaultValues {
  NSMutableDictionary *values = [NSMutableDictionary dictionary];
  values[@"reg.step"] = @3;
  [values setObject:@YES forKey:@"reg.flag"];
  [values setValue:@"compact" forKey:@"reg.style"];
  return values;
}

// A dictionary made once, in a block, kept in a static variable; enum constants as values.
+ (NSDictionary *)standardDefaults {
  static NSDictionary *standard;
  static dispatch_once_t once;
  dispatch_once(&once, ^{
    standard = @{ @"reg.mode" : @(FlowModeAlways), @"reg.modes" : @(FlowModeAll) };
  });
  return standard;
}

// A bundle file read as data, then parsed: its keys are registered.
+ (NSDictionary *)bundleDefaults {
  NSString *path = [[NSBundle mainBundle] pathForResource:@"More" ofType:@"plist"];
  NSData *data = [[NSFileManager defaultManager] contentsAtPath:path];
  return [NSPropertyListSerialization propertyListWithData:data options:0 format:NULL error:NULL];
}

+ (void)initialize {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  [defaults registerDefaults:[self defaultValues]];  // reg.step 3, reg.flag YES, reg.style
  [defaults registerDefaultsFromFile:@"FlowDefaults"];  // FlowDefaults.plist's keys
  [defaults registerDefaults:[self standardDefaults]];  // reg.mode 4, reg.modes 12
  [defaults registerDefaults:AppFactory.factoryDefaults];  // reg.list (), reg.limit 1440
  [defaults registerDefaults:[self bundleDefaults]];  // More.plist: more.fromData 11
}

- (void)paint {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  // Slot%dColor: a pattern the bundle file names concretely (Slot0Color, Slot1Color).
  for (int i = 0; i < 2; i++) {
    NSString *color = [defaults stringForKey:[NSString stringWithFormat:@"Slot%dColor", i]];
    (void)color;
  }
  NSInteger step = [defaults integerForKey:@"reg.step"];
  BOOL flag = [defaults boolForKey:@"reg.flag"];
  NSString *style = [defaults stringForKey:@"reg.style"];
  NSInteger fromFile = [defaults integerForKey:@"flow.fromFile"];
  (void)step; (void)flag; (void)style; (void)fromFile;
}
@end
