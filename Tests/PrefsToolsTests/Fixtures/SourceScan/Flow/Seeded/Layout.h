typedef enum {
    DCC_AUTO_ACCEPT = 0,
    DCC_SHOW_DIALOG,
    DCC_IGNORE,
} DCCActionType;

@interface NSMutableDictionary (Helper)
- (void)setBool:(BOOL)value forKey:(NSString*)key;
- (void)setInt:(int)value forKey:(NSString*)key;
- (void)setDouble:(double)value forKey:(NSString*)key;
@end
