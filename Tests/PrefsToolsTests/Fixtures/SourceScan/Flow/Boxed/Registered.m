// Numbers boxed by their macro's name (`@PROXY_SYSTEM`: the literal's @ and a macro): 3 and 1,
// typed by the registered number when no getter says (bx.quality: integer, a hint).
#define PROXY_SYSTEM 3
#define QUALITY_MED 1

@implementation BXRegistered
+ (void)load {
  [[NSUserDefaults standardUserDefaults] registerDefaults:@{
    @"bx.proxy": @PROXY_SYSTEM,
    @"bx.quality": @QUALITY_MED,
  }];
}
- (NSInteger)proxy { return [[NSUserDefaults standardUserDefaults] integerForKey:@"bx.proxy"]; }
@end
