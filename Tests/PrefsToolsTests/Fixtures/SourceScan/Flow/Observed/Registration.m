#import <Foundation/Foundation.h>

// What a thirty-fourth set of never-seen apps showed (Objective-C): values registered through
// variables declared in a list (`NSNumber *const yes = …, *no = …;`) and an array a variable
// declared immutable holds (observedYes: bool, true; observedNo: bool, false; observedOrder:
// string-array, ("title", "artist")). Trap: observedQueue, from a mutable array the method
// fills after (no default).
@implementation ObservedRegistration

+ (void)initialize {
  NSNumber *const yes = [NSNumber numberWithBool:YES], *no = [NSNumber numberWithBool:NO];
  NSArray *order = [NSArray arrayWithObjects:@"title", @"artist", nil];
  NSMutableArray *queue = [NSMutableArray arrayWithObjects:@"first", nil];
  [queue addObject:@"second"];
  [[NSUserDefaults standardUserDefaults] registerDefaults:[NSDictionary dictionaryWithObjectsAndKeys:
    yes, @"observedYes",
    no, @"observedNo",
    order, @"observedOrder",
    queue, @"observedQueue",
    nil]];
}

- (void)read {
  NSUserDefaults *d = [NSUserDefaults standardUserDefaults];
  [d boolForKey:@"observedYes"];
  [d boolForKey:@"observedNo"];
  [d stringArrayForKey:@"observedOrder"];
  [d stringArrayForKey:@"observedQueue"];
}

@end
