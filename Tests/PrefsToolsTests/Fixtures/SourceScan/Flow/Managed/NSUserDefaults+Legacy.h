#import <Foundation/Foundation.h>

// A category of NSUserDefaults whose accessors a dynamic-property library makes at run time:
// each @dynamic property is the key of its name.
@interface NSUserDefaults (Legacy)
@property (nonatomic) BOOL showsToolbar;
@property (nonatomic) NSInteger recentCount;
@property (nonatomic) NSTimeInterval timeInterval;
@end
