#import "HDConstants.h"

// Constants only: this file never names user defaults. The numbers are read like the strings.
NSString * const HDPrefCheckFrequency = @"hd.checkFrequency";
NSString * const HDPrefReadInterval = @"hd.readInterval";
NSString * const HDPrefStyle = @"hd.style";
NSString * const HDPrefLayout = @"hd.layout";
NSInteger const HDDefaultCheckFrequency = 10800;
float const HDDefaultReadInterval = 0.5;
// Trap: a variable of the file, given a value at run time, is no constant of the defaults.
static NSInteger HDLaunchCount;
