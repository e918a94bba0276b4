#import "Modes.h"

// Numbers named by a macro and by an enum constant of another header, boxed by NSNumber:
// registered as 50 and 2.
#define kDefaultLineLength 50
#define kLineLength @"bx.lineLength"
#define kSearchMode @"bx.searchMode"

@implementation BXDefaults

+ (double)defaultWidth { return 250; }

+ (void)initialize
{
	NSMutableDictionary *defaultValues = [NSMutableDictionary dictionary];
	[defaultValues setObject:[NSNumber numberWithInt:kDefaultLineLength] forKey:kLineLength];
	[defaultValues setObject:[NSNumber numberWithInteger:BXSearchModeRegex] forKey:kSearchMode];
	[[NSUserDefaults standardUserDefaults] registerDefaults:defaultValues];
	// A class property of its own, boxed: what its getter returns (250).
	[[NSUserDefaults standardUserDefaults] registerDefaults:@{
		@"bx.panelWidth" : @(self.class.defaultWidth),
	}];
}

+ (NSInteger)lineLength { return [[NSUserDefaults standardUserDefaults] integerForKey:kLineLength]; }
+ (NSInteger)searchMode { return [[NSUserDefaults standardUserDefaults] integerForKey:kSearchMode]; }
+ (double)panelWidth { return [[NSUserDefaults standardUserDefaults] doubleForKey:@"bx.panelWidth"]; }

// No stored width is below 1: the getter's 0 (absent) becomes 200, the fallback.
- (void)restoreSplit
{
	CGFloat position = [[NSUserDefaults standardUserDefaults] doubleForKey:@"bx.split"];
	if (position < 1.0)
		position = 200;
	[self setPosition:position];
}

// A point written as text and read back through NSPointFromString: a string.
- (void)saveOrigin:(NSRect)frame
{
	NSUserDefaults *ud = [NSUserDefaults standardUserDefaults];
	[ud setObject:NSStringFromPoint(frame.origin) forKey:@"bx.origin"];
}
- (NSPoint)origin
{
	NSUserDefaults *ud = [NSUserDefaults standardUserDefaults];
	return NSPointFromString([ud objectForKey:@"bx.origin"]);
}

// objectForKey: returned from a method declared to return a string: a string. The same
// getter subscripted first says nothing of the key's type (bx.store stays any).
- (NSString *)lastTemplate
{
	return [[NSUserDefaults standardUserDefaults] objectForKey:@"bx.lastTemplate"];
}
- (NSData *)storedDataForKey:(NSString *)key
{
	return [[NSUserDefaults standardUserDefaults] objectForKey:@"bx.store"][key];
}
@end
