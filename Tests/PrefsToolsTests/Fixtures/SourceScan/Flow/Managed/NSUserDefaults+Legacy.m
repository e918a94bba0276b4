#import "NSUserDefaults+Legacy.h"

@implementation NSUserDefaults (Legacy)
@dynamic showsToolbar, recentCount, timeInterval;

// Trap: a @dynamic property whose getter the category writes itself is no key of its name
// (the key is the one the getter reads).
- (NSTimeInterval)timeInterval
{
    return (NSTimeInterval)[self integerForKey:@"Legacy.TimeInterval"];
}
@end

@implementation Window
-(void) show
{
    if ([NSUserDefaults standardUserDefaults].showsToolbar) {}
    NSInteger n = [NSUserDefaults standardUserDefaults].recentCount;
}
@end
