// A seventh set of never-seen apps: a wrapper's declared default kept when the key is absent.
#define kIntervalPref @"Interval"
#define kIntervalDefault 5

@implementation Prefs

// The variable is given the default, and replaced by the key's value only when it is there.
- (int)loadIntPref:(NSString *)prefName defaultValue:(int)defaultValue {
    int returnValue = defaultValue;
    if ([[NSUserDefaults standardUserDefaults] objectForKey:prefName]) {
        returnValue = (int)[[NSUserDefaults standardUserDefaults] integerForKey:prefName];
    }
    return returnValue;
}

// The branch taken when the key is there returns: the return after it is the absent value.
- (BOOL)loadBoolPref:(NSString *)prefName defaultValue:(BOOL)defaultValue {
    if ([[NSUserDefaults standardUserDefaults] objectForKey:prefName]) {
        return [[NSUserDefaults standardUserDefaults] boolForKey:prefName];
    }
    return defaultValue;
}

// The same with the getter's answer held in a local.
- (NSString *)loadStringPref:(NSString *)prefName defaultValue:(NSString *)defaultValue {
    NSString *s = [[NSUserDefaults standardUserDefaults] objectForKey:prefName];
    if (s) {
        return s;
    }
    return defaultValue;
}

- (void)load {
    int interval = [self loadIntPref:kIntervalPref defaultValue:kIntervalDefault];
    BOOL temperature = [self loadBoolPref:@"Temperature" defaultValue:YES];
    NSString *sensor = [self loadStringPref:@"Sensor" defaultValue:@"automatic"];
}

// Traps: a branch that does not return; a bool's value is no presence; a branch that gives
// the variable something other than the key's value.
- (int)count {
    if ([[NSUserDefaults standardUserDefaults] objectForKey:@"Count"]) {
        NSLog(@"present");
    }
    return 7;
}

- (id)rounded {
    BOOL rounded = [[NSUserDefaults standardUserDefaults] boolForKey:@"Rounded"];
    if (rounded) {
        return [self roundedCopy];
    }
    return self;
}

- (NSString *)title {
    NSString *title = @"Untitled";
    if ([[NSUserDefaults standardUserDefaults] objectForKey:@"Title"]) {
        title = @"Named";
    }
    NSString *stored = [[NSUserDefaults standardUserDefaults] stringForKey:@"Title"];
    return title;
}

@end
