import SwiftUI

// Keys declared as static `@AppStorage` properties of a type: one named (`DeclaredKeys.shown`),
// the other only as another object's property of the same name, so never (declared, not a
// key): declaredShown (bool, true).
struct DeclaredKeys {
  @AppStorage("declaredShown") static var shown = true
  @AppStorage("declaredSound") static var sound = true
}

final class DeclaredModel: ObservableObject {
  @Published var sound = false
}

func declaredUse(model: DeclaredModel) -> Bool {
  model.sound = !model.sound
  return DeclaredKeys.shown
}
