/// A warning on standard error, one line: `meshgeo: warning: …`. The command goes on.
enum Warning {
    static func write(_ message: String) {
        StandardError.write("meshgeo: warning: \(message)")
    }
}
