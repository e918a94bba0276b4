#import "UNHelper.h"

@implementation UNHelper

+ (NSString *)syntax {
  NSString *ret = [UNDefaults objectForKey:@"un.syntax"];
  if (!ret || ![[UNHelper known] containsObject:ret]) {
    return @"Plain Text";
  }
  return ret;
}

+ (NSInteger)tabWidth {
  NSInteger width = [UNDefaults integerForKey:@"un.tabWidth"];
  if (width <= 0) {
    return 4;
  }
  return width;
}

- (void)load {
  width = 512;
  if ([UNDefaults objectForKey:@"un.width"])
    width = [UNDefaults integerForKey:@"un.width"];
  int value;
  if ([UNDefaults objectForKey:@"un.tolerance"] == NULL) {
    [toleranceSlider setIntValue:15];
  } else {
    value = [UNDefaults integerForKey:@"un.tolerance"];
    [toleranceSlider setIntValue:value];
  }
  if ([UNDefaults objectForKey:@"un.fade"] == NULL) {
    [fadeSlider setIntValue:10];
  } else {
    [fadeSlider setIntValue:[UNDefaults integerForKey:@"un.fadeRate"]];
  }
}

// Traps: a loader's NO is no value of the key; a branch a present key may take says nothing.
- (BOOL)loadTheme {
  NSString *theme = [UNDefaults objectForKey:@"un.theme"];
  if (!theme) return NO;
  [self apply:theme];
  return YES;
}

+ (NSString *)accent {
  NSString *accent = [UNDefaults objectForKey:@"un.accent"];
  if (accent || [self forced]) {
    return @"Blue";
  }
  return accent;
}

@end
