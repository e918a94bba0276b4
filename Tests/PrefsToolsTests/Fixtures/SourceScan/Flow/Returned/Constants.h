// The app group's suite, as a build setting would name it.
#define kAppGroup @"group.example.shared"
