// Defaults gathered from each class: every panel class answers +panelDefaults, and the
// controller merges the answer of each class a factory names (a `Class` variable, cast to the
// protocol) into the dictionary it registers. Each class's entries are registered.
#import <Cocoa/Cocoa.h>

@protocol Panel
+ (NSDictionary *)panelDefaults;
@end

@interface ClockPanel : NSObject <Panel>
@end

@implementation ClockPanel
+ (NSDictionary *)panelDefaults
{
    return @{ @"clock.size": @14.5, @"clock.seconds": @YES };  // clock.size 14.5, clock.seconds YES
}
@end

@interface NotePanel : NSObject <Panel>
@end

@implementation NotePanel
+ (NSDictionary *)panelDefaults
{
    return @{ @"note.lines": @3 };  // note.lines 3
}
@end

@interface PanelController : NSObject
@end

@implementation PanelController
- (void)registerDefaults
{
    NSUserDefaults *userDefaults = [NSUserDefaults standardUserDefaults];
    NSMutableDictionary *defaults = [NSMutableDictionary dictionary];
    for (PanelFactory *factory in [PanelFactory allFactories]) {
        Class panelClass = factory.panelClass;
        if ([panelClass conformsToProtocol:@protocol(Panel)]) {
            [defaults addEntriesFromDictionary:[(Class<Panel>)panelClass panelDefaults]];
        }
    }
    [defaults addEntriesFromDictionary:@{ @"panel.visible": @NO }];  // panel.visible NO
    [userDefaults registerDefaults:defaults];
}

- (float)clockSize
{
    return [[NSUserDefaults standardUserDefaults] floatForKey:@"clock.size"];
}
@end
