// A number getter's answer raised to a bound: the getter's 0 when the key is absent becomes
// the bound, which is what the app sees.
#import <Cocoa/Cocoa.h>

@interface GridView : NSView
@end

@implementation GridView

- (NSInteger)rows
{
    NSInteger rows = [[NSUserDefaults standardUserDefaults] integerForKey:@"grid.rows"];
    rows = MIN(MAX(rows, 6), 10);  // grid.rows: 6 when absent
    return rows;
}

- (double)scale
{
    double scale = [[NSUserDefaults standardUserDefaults] doubleForKey:@"grid.scale"];
    return MAX(scale, 0);  // grid.scale: 0 is the getter's own answer, no default
}

@end
