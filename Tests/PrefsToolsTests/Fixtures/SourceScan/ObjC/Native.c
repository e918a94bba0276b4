/* C: CFPreferences of the current application. */
#include <CoreFoundation/CoreFoundation.h>

Boolean nativeFlag(void) {
    Boolean valid = false;
    Boolean on = CFPreferencesGetAppBooleanValue(CFSTR("nativeFlag"), kCFPreferencesCurrentApplication, &valid);
    CFIndex level = CFPreferencesGetAppIntegerValue(CFSTR("nativeLevel"), kCFPreferencesCurrentApplication, &valid);
    CFPreferencesSetAppValue(CFSTR("nativeName"), CFSTR("x"), kCFPreferencesCurrentApplication);
    return on && level > 0;
}
