#import "SyncOptions.h"

@implementation SyncOptions
@dynamic syncOnLaunch;
@end
