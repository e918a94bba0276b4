#import <Foundation/Foundation.h>

extern NSString * const HDPrefCheckFrequency;
extern NSString * const HDPrefReadInterval;
extern NSString * const HDPrefStyle;
extern NSString * const HDPrefLayout;
extern NSInteger const HDDefaultCheckFrequency;
extern float const HDDefaultReadInterval;
