#import "NSUserDefaults+Legacy.h"

@implementation NSUserDefaults (Legacy)
@dynamic showsToolbar, recentCount;
@end

@implementation Window
-(void) show
{
    if ([NSUserDefaults standardUserDefaults].showsToolbar) {}
    NSInteger n = [NSUserDefaults standardUserDefaults].recentCount;
}
@end
