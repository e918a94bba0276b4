#import "Keys.h"

NSString *const kUserName = @"userName";
NSString * const kFontSize = @"fontSize";
NSString *const kSoundDidChangeNotification = @"SoundDidChange";
