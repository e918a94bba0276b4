#import "Keys.h"

@implementation Getters

// Each getter says its key's type.
- (void)readAll {
    NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
    BOOL sound = [defaults boolForKey:kSoundEnabled];                  // bool
    double volume = [defaults floatForKey:kVolumeLevel];               // double
    NSString *name = [defaults stringForKey:kUserName];                // string
    NSInteger size = [defaults integerForKey:kFontSize];               // integer
    NSArray *recent = [defaults stringArrayForKey:@"recentSearches"];  // string-array
    NSArray *items = [defaults arrayForKey:@"items"];                  // string-array: registered as strings
    NSDictionary *frame = [defaults dictionaryForKey:@"windowFrame"];  // dictionary
    NSData *avatar = [defaults dataForKey:@"avatar"];                  // data
    NSURL *folder = [defaults URLForKey:@"downloadFolder"];            // url
    double zoom = [defaults doubleForKey:@"zoom"];                     // double
    NSLog(@"%d %f %@ %ld %@ %@ %@ %@ %@ %f", sound, volume, name, (long)size, recent, items,
          frame, avatar, folder, zoom);
}

// objectForKey:'s result, typed by what the code does with it.
- (void)readObjects {
    NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
    BOOL welcome = [[defaults objectForKey:@"showWelcome"] boolValue];          // bool
    NSInteger launches = [[defaults objectForKey:@"launchCount"] integerValue]; // integer
    NSString *city = (NSString *)[defaults objectForKey:@"city"];               // string (cast)
    if ([[defaults objectForKey:@"tags"] isKindOfClass:[NSArray class]]) {      // array
        NSLog(@"tags");
    }
    NSDictionary *layout = [defaults objectForKey:@"layout"];                   // dictionary
    NSNumber *ratio = [defaults objectForKey:@"ratio"];
    double r = [ratio doubleValue];                                             // double
    id blob = [defaults objectForKey:@"blob"];                                  // any
    NSData *profile = [defaults dataForKey:@"profile"];
    id json = [NSJSONSerialization JSONObjectWithData:profile options:0 error:NULL]; // json
    NSLog(@"%d %ld %@ %@ %f %@ %@", welcome, (long)launches, city, layout, r, blob, json);
}

// Setters say the type too.
- (void)writeAll {
    NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
    [defaults setBool:YES forKey:kSoundEnabled];
    [defaults setFloat:0.5f forKey:kVolumeLevel];
    [defaults setObject:@"Ada" forKey:kUserName];
    [defaults setInteger:12 forKey:kFontSize];
    [defaults setObject:[NSDate date] forKey:@"lastLaunch"];                    // date
    NSData *history = [NSJSONSerialization dataWithJSONObject:@[] options:0 error:NULL];
    [defaults setObject:history forKey:@"history"];                             // json
    [defaults setDouble:2.5 forKey:@"speed"];                                   // double
}

// Two types for one key: any, flagged.
- (void)mixed {
    [[NSUserDefaults standardUserDefaults] setInteger:3 forKey:@"mode"];
    NSString *mode = [[NSUserDefaults standardUserDefaults] stringForKey:@"mode"];
    NSLog(@"%@", mode);
}

@end
