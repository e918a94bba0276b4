// Another class of PAPreferences whose implementation names no user defaults: read whole for
// naming the class (syncOnLaunch: bool).
#import <PAPreferences/PAPreferences.h>

@interface SyncOptions : PAPreferences
@property (assign) BOOL syncOnLaunch;
@end
