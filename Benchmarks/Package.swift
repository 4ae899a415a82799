// swift-tools-version: 6.0
// The kernel benchmarks: a package of its own so the root package's build and dependencies are
// unaffected. Run from this folder: swift run -c release KernelBenchmarks
import PackageDescription

let package = Package(
    name: "KernelBenchmarks",
    dependencies: [
        // The root package by its own name, whatever its checkout folder is called.
        .package(name: "SurfaceKit", path: ".."),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
    ],
    targets: [
        .executableTarget(
            name: "KernelBenchmarks",
            dependencies: [
                .product(name: "SurfaceKit", package: "SurfaceKit"),
                .product(name: "MeshTessellate", package: "SurfaceKit"),
                .product(name: "Benchmark", package: "swift-benchmark"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
