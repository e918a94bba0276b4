#import <Foundation/Foundation.h>

// What a thirty-fifth set of never-seen apps showed (Objective-C, GNUstep): key constants
// declared in one list at file level, user defaults kept in a file's static variable, and a
// number the code reads into a static variable and tests for zero: SubclassedFont (string),
// SubclassedFontSize (double), SubclassedScrollBack (integer, 256).
static NSUserDefaults *ud;

static NSString
	*FontKey=@"SubclassedFont",
	*FontSizeKey=@"SubclassedFontSize",
	*ScrollBackKey=@"SubclassedScrollBack";

static int scrollBackLines;

@implementation SubclassedTerminalPrefs

+(void) initialize
{
	if (!ud)
		ud=[NSUserDefaults standardUserDefaults];
	NSString *font=[ud stringForKey: FontKey];
	float size=[ud floatForKey: FontSizeKey];
	scrollBackLines=[ud integerForKey: ScrollBackKey];
	if (scrollBackLines<=0)
		scrollBackLines=256;
}

@end
