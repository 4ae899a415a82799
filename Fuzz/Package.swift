// swift-tools-version: 6.0
// A libFuzzer target over reading mesh.json and everything meshgeo does with what parses. A separate
// package so that the root build is untouched: libFuzzer brings its own `main`.
// Build and run it with scripts/fuzz.sh.
import PackageDescription

let package = Package(
    name: "MeshFuzz",
    dependencies: [
        .package(name: "SurfaceKit", path: ".."),
    ],
    targets: [
        // The entry point that hands control to libFuzzer.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "MeshFuzz",
            dependencies: [
                "FuzzDriver",
                .product(name: "SurfaceKit", package: "SurfaceKit"),
                .product(name: "MeshTessellate", package: "SurfaceKit"),
                .product(name: "MeshRender", package: "SurfaceKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
