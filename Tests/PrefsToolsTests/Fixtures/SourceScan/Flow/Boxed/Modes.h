// An enum in a header of its own, its first constant 1, the next ones counted on.
typedef NS_ENUM(NSInteger, BXSearchMode) {
	BXSearchModeBasic = 1,
	BXSearchModeRegex,
};
