#import <Foundation/Foundation.h>

// The suite a C function of another file makes, held in a local inside a block.
@implementation ActionExtension
- (void)run {
    dispatch_async(dispatch_get_global_queue(0, 0), ^{
        NSUserDefaults *defaults = SharedPrefs();
        [defaults registerDefaults:@{ @"GifQuality" : @(90) }];
    });
    // A C function the tree does not define: user defaults as declared, the standard ones.
    NSUserDefaults *library = LibraryDefaults();
    NSLog(@"%ld", (long)[library integerForKey:@"LibraryLevel"]);
}
@end
