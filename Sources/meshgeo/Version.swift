/// The version `meshgeo --version` prints: the one place it is written.
enum MeshGeoVersion {
    static let string = "0.1.0-dev"
}
