// Macros from a header, used by Prefs.m (the include is resolved in the tree).
#define PREF_KEY(name) @#name "Shortcut"
#define KEY(x) k##x##Key
#define PREF_BOOL(...) [[NSUserDefaults standardUserDefaults] boolForKey:__VA_ARGS__]
#define DEFINE_BOOL_PREF(getter, key)                                  \
  - (BOOL)getter {                                                     \
    return [[NSUserDefaults standardUserDefaults] boolForKey:key];     \
  }
#define STRINGIFY(x) #x
#define PREFIXED(name) @"app." STRINGIFY(name)
