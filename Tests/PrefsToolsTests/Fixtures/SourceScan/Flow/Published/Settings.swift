// swift-format-ignore-file
import Combine
import Foundation

// The app's own enum of static wrappers, each key a case of a String enum passed as a
// parameter and reaching UserDefaults.standard by its raw value.
enum Store {
    enum Key: String {
        case badge = "pb.badge"
        case volume = "pb.volume"
        case order = "pb.order"
        case frame = "pb.frame"
        case label = "pb.label"
        case shadow = "pb.shadow"
        case sort = "pb.sort"
    }

    static func object(forKey key: Key) -> Any? {
        UserDefaults.standard.object(forKey: key.rawValue)
    }

    static func data(forKey key: Key) -> Data? {
        UserDefaults.standard.data(forKey: key.rawValue)
    }

    static func set(_ value: Any?, forKey key: Key) {
        UserDefaults.standard.set(value, forKey: key.rawValue)
    }

    // Gives the variable the stored value only when there is one: when the key is absent the
    // variable keeps its initial value.
    static func ifPresent<Value>(key: Key, assign value: inout Value) {
        if let found = object(forKey: key) as? Value {
            value = found
        }
    }

    static func ifPresent<Value>(key: Key, body: (Value) -> Void) {
        if let found = object(forKey: key) as? Value {
            body(found)
        }
    }
}

enum Order: Int {
    case name = 0
    case date = 1
}

struct Frame: Codable {
    var width = 100.0
}

final class Settings: ObservableObject {
    // A published property keeps the value it starts with when the key is absent, and each
    // sink below writes its value back when it is subscribed (Combine sends the current value
    // first): that value is what the defaults hold.
    @Published var badge = true                 // pb.badge: bool, true
    @Published var volume: Double = 0.25        // pb.volume: double, 0.25
    @Published var order: Order = .date         // pb.order: integer (its raw value), 1
    @Published var frame = Frame()              // pb.frame: JSON data, no plain default
    @Published var label = "Inbox"              // pb.label: string, "Inbox" (read through &)

    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()
    private var cancellables = Set<AnyCancellable>()

    func load() {
        Store.ifPresent(key: .badge, assign: &badge)
        Store.ifPresent(key: .volume, assign: &volume)
        Store.ifPresent(key: .label, assign: &label)
        Store.ifPresent(key: .order) { (raw: Int) in
            if let order = Order(rawValue: raw) {
                self.order = order
            }
        }
        if let data = Store.data(forKey: .frame) {
            frame = (try? decoder.decode(Frame.self, from: data)) ?? Frame()
        }
    }

    func observe() {
        $badge
            .receive(on: DispatchQueue.main)
            .sink { badge in
                Store.set(badge, forKey: .badge)
            }
            .store(in: &cancellables)
        $volume
            .sink { [weak self] level in
                guard self != nil else { return }
                Store.set(level, forKey: .volume)
            }
            .store(in: &cancellables)
        $order
            .sink { order in
                Store.set(order.rawValue, forKey: .order)
            }
            .store(in: &cancellables)
        $frame
            .sink { [weak self] frame in
                guard let self else { return }
                if let data = try? self.encoder.encode(frame) {
                    Store.set(data, forKey: .frame)
                }
            }
            .store(in: &cancellables)
    }
}

struct Look {
    var shadow: Bool
    var width: Double
}

// A member of a variable whose value the caller gives: typed by the member's declaration
// (pb.shadow: bool); what it holds when the key is absent is only known at run time.
func migrate(from old: Look) -> Look {
    var look: Look = old
    Store.ifPresent(key: .shadow, assign: &look.shadow)
    return look
}

// Read only through a closure that makes the enum from the stored raw value: pb.sort is an
// integer (Order's raw type); the caller sees nil when it is absent.
func savedSort() -> Order? {
    var sort: Order?
    Store.ifPresent(key: .sort) { raw in
        if let value = Order(rawValue: raw) {
            sort = value
        }
    }
    return sort
}
