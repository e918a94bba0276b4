#import "Options.h"

@implementation AppOptions

@dynamic showRuler, tabWidth;
@dynamic zoom;
@dynamic fontName;
@dynamic lastWindow;
@dynamic exportFolder;

- (instancetype)init
{
    self = [super init];
    if (!self)
        return nil;
    // Every launch: a value when the key is absent (its default).
    NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
    if (![defaults objectForKey:@"tabWidth"])
        self.tabWidth = 4;
    if ([defaults objectForKey:@"fontName"] == nil)
        self.fontName = @"Courier";
    return self;
}

- (NSString *)displayName
{
    return [self.fontName stringByAppendingString:@" (default)"];
}

@end

// A class that is not one of PAPreferences: its @dynamic properties are Core Data's, no keys.
@interface Note : NSManagedObject
@property (nonatomic, strong) NSString *title;
@end

@implementation Note
@dynamic title;
@end
