#import "HelperTools.h"

@implementation Settings

// Each key written once, at launch, when it is absent: the value written is its default.
-(void) defaultSettings
{
    [self upgradeBoolUserSettingsIfUnset:@"Sound" toDefault:YES];
    [self upgradeIntegerUserSettingsIfUnset:@"MaxUploadSize" toDefault:5*1024*1024];
    [self upgradeIntegerUserSettingsIfUnset:@"PrivacyLevel" toDefault:PrivacyOptionNameOnly];
    [self upgradeObjectUserSettingsIfUnset:@"AlertSound" toDefault:@"chime"];
    [self removeObjectUserSettingsIfSet:@"LegacyOutbox"];
}

-(void) upgradeBoolUserSettingsIfUnset:(NSString*) settingsName toDefault:(BOOL) defaultVal
{
    NSNumber* current = [[HelperTools defaultsDB] objectForKey:settingsName];
    if(current == nil)
    {
        [[HelperTools defaultsDB] setBool:defaultVal forKey:settingsName];
        [[HelperTools defaultsDB] synchronize];
    }
}

-(void) upgradeIntegerUserSettingsIfUnset:(NSString*) settingsName toDefault:(NSInteger) defaultVal
{
    NSNumber* current = [[HelperTools defaultsDB] objectForKey:settingsName];
    if(current == nil)
        [[HelperTools defaultsDB] setInteger:defaultVal forKey:settingsName];
}

-(void) upgradeObjectUserSettingsIfUnset:(NSString*) settingsName toDefault:(id) defaultVal
{
    if([[HelperTools defaultsDB] objectForKey:settingsName] == nil)
        [[HelperTools defaultsDB] setObject:defaultVal forKey:settingsName];
}

// Only ever removed: a key of the suite, proposed for drop.
-(void) removeObjectUserSettingsIfSet:(NSString*) settingsName
{
    if([[HelperTools defaultsDB] objectForKey:settingsName] != nil)
        [[HelperTools defaultsDB] removeObjectForKey:settingsName];
}

-(void) use
{
    if([[HelperTools defaultsDB] boolForKey:@"Sound"]) {}
    NSInteger size = [[HelperTools defaultsDB] integerForKey:@"MaxUploadSize"];
    NSInteger privacy = [[HelperTools defaultsDB] integerForKey:@"PrivacyLevel"];
    NSString* sound = [[HelperTools defaultsDB] stringForKey:@"AlertSound"];
    // A date the code makes: the key holds a date (its value is the run's, not a default).
    [[HelperTools defaultsDB] setObject:[NSDate now] forKey:@"LastStart"];
    // Trap: a cache, not user defaults, though its method has a defaults getter's name.
    [[HelperTools sharedCache] objectForKey:@"thumbnail"];
    // Trap: another class's method of the same name, whose body the tree does not show: it
    // may be user defaults, not known to be (reported, never planned).
    [[ImageStore defaultsDB] objectForKey:@"avatar"];
}

@end

// The standard domain: an upgrade of a version number is no default (a number's 0 is below
// it as much as an old version is).
@implementation Upgrader
-(void) upgrade
{
    NSInteger version = [[NSUserDefaults standardUserDefaults] integerForKey:@"ServicesVersion"];
    if (version < 2) {
        [[NSUserDefaults standardUserDefaults] setInteger:2 forKey:@"ServicesVersion"];
    }
}
@end
