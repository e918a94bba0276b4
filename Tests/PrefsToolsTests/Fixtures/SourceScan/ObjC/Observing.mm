// Objective-C++: the same messages, in a .mm file.
#import "Keys.h"
#include <string>

@implementation Observing
- (void)start {
    // Key-value observing of user defaults: a use of the key (its type unknown).
    [[NSUserDefaults standardUserDefaults] addObserver:self forKeyPath:@"watchedKey"
                                               options:NSKeyValueObservingOptionNew context:NULL];
    // A binding made in code to the shared user defaults controller.
    [self.gridCheckbox bind:@"enabled"
                   toObject:[NSUserDefaultsController sharedUserDefaultsController]
                withKeyPath:[@"values." stringByAppendingString:@"showGrid"]
                    options:nil];
    std::string name = "not a key";
}
@end
