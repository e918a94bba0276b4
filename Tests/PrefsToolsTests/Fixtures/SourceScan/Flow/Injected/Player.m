#import <Foundation/Foundation.h>

// Registered values held in locals declared with a constant, and a key read as two numbers
// but written as one.

static NSString * const kShowOSD = @"inj.ShowOSD";
static NSString * const kCloseOnStop = @"inj.CloseOnStopped";
static NSString * const kCacheSize = @"inj.CacheSize";
static NSString * const kFavorites = @"inj.Favorites";
static NSString * const kEditors = @"inj.Editors";
static NSString * const kLevels = @"inj.Levels";

@implementation Player

+ (void)initialize
{
	NSNumber *boolYes = [NSNumber numberWithBool:YES];
	NSNumber *boolNo  = [NSNumber numberWithBool:NO];
	// Trap: an array filled after it is declared is not its empty start.
	NSMutableArray *favorites = [[NSMutableArray alloc] init];
	[favorites addObject:@"first"];
	[[NSUserDefaults standardUserDefaults] registerDefaults:
		[NSDictionary dictionaryWithObjectsAndKeys:
			boolYes, kShowOSD,
			boolNo, kCloseOnStop,
			[NSNumber numberWithUnsignedInt:10000], kCacheSize,
			favorites, kFavorites,
			[NSArray arrayWithObjects:@"com.apple.TextEdit", @"com.example.Edit", nil], kEditors,
			// Trap: an array of numbers is no string array.
			[NSArray arrayWithObjects:@1, @2, nil], kLevels,
			nil]];
}

- (void)load
{
	NSUserDefaults *ud = [NSUserDefaults standardUserDefaults];
	BOOL osd = [ud boolForKey:kShowOSD];
	BOOL close = [ud boolForKey:kCloseOnStop];
	float cache = [ud floatForKey:kCacheSize];
	NSInteger size = [ud integerForKey:kCacheSize];
	[ud setInteger:(NSInteger)cache forKey:kCacheSize];
	NSArray *favorites = [ud arrayForKey:kFavorites];
	NSArray *editors = [ud arrayForKey:kEditors];
	NSArray *levels = [ud arrayForKey:kLevels];
}

@end

// A function's variable given its user defaults after its declaration: the suite.
BOOL DNDState(void)
{
	NSUserDefaults *defaults = nil;
	defaults = [[NSUserDefaults alloc] initWithSuiteName:@"com.example.center"];
	return [defaults boolForKey:@"inj.doNotDisturb"];
}
