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

// A presence test joined with others: `&&` asking the key be there, `||` asking it be absent
// (trap: `&&` with an absence test, which the key's absence alone does not decide).
- (void)loadView {
  if ([UNDefaults objectForKey:@"un.rulers"] && [UNDefaults boolForKey:@"un.rulers"])
    rulers = YES;
  else
    rulers = NO;
  if ([UNDefaults objectForKey:@"un.guides"] == nil || [UNDefaults boolForKey:@"un.guides"])
    guides = YES;
  else
    guides = NO;
  if ([UNDefaults objectForKey:@"un.grid"] == nil && [self wantsGrid])
    grid = YES;
  else
    grid = [UNDefaults boolForKey:@"un.grid"];
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
