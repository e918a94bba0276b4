// A class of PAPreferences (the library): each @dynamic property is a key of the standard
// user defaults named as the property, read and written by the getter and setter of its type.
#import <PAPreferences/PAPreferences.h>

@interface AppOptions : PAPreferences

@property (assign) BOOL showRuler;            // showRuler: bool
@property (assign) NSInteger tabWidth;        // tabWidth: integer, 4 when absent (Options.m)
@property (assign) CGFloat zoom;              // zoom: double
@property (assign) NSString *fontName;        // fontName: string, "Courier" when absent
@property (assign) NSDictionary *lastWindow;  // lastWindow: dictionary
@property (assign) NSURL *exportFolder;       // exportFolder: url

// Computed from another: not dynamic, no key.
@property (readonly) NSString *displayName;

@end
