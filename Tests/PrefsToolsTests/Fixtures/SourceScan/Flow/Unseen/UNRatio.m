#import "UNRatio.h"

// An object that keeps the key's part it was made with in an instance variable named
// without `_` or `self.`: each allocation's argument makes the instance's keys.
@implementation UNRatio

- (id)initWithMaster:(id)master prefix:(NSString *)iprefix {
  self = [super init];
  prefix = iprefix;
  if ([UNDefaults objectForKey:[NSString stringWithFormat:@"un.%@.index", prefix]] == NULL) {
    index = 0;
  } else {
    index = [UNDefaults integerForKey:[NSString stringWithFormat:@"un.%@.index", prefix]];
  }
  return self;
}

- (void)shutdown {
  [UNDefaults setDouble:ratio forKey:[NSString stringWithFormat:@"un.%@.ratio", prefix]];
}

@end

@implementation UNCropOptions

- (void)awake {
  ratio = [[UNRatio alloc] initWithMaster:self prefix:@"crop"];
}

@end
