// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SurfaceKit",
    products: [
        .library(name: "SurfaceKit", targets: ["SurfaceKit"]),
        .library(name: "MeshTessellate", targets: ["MeshTessellate"]),
        .library(name: "MeshRender", targets: ["MeshRender"]),
        .executable(name: "meshgeo", targets: ["meshgeo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // LAPACKE (Debian: liblapacke-dev). Internal shim, not API.
        .systemLibrary(
            name: "CLAPACKE",
            pkgConfig: "lapacke",
            providers: [.apt(["liblapacke-dev"])]
        ),
        .target(
            name: "SurfaceKit",
            dependencies: [
                "CLAPACKE",
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        // The Swift runtime's Double formatter, declared for C calls. Internal, not API.
        .target(name: "CSwiftRuntimeShims"),
        .target(
            name: "MeshTessellate",
            dependencies: [
                "SurfaceKit",
                "CSwiftRuntimeShims",
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        // libpng (Debian: libpng-dev). Internal shim, not API.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // libjpeg (Debian: libjpeg-dev, which is libjpeg-turbo). Internal shim, not API.
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]
        ),
        .target(
            name: "MeshRender",
            dependencies: [
                "SurfaceKit",
                "MeshTessellate",
                "CPNG",
                "CJPEG",
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        // The workloads of `meshgeo bench`. Internal, not API: no product exports it.
        .target(
            name: "MeshBench",
            dependencies: ["SurfaceKit", "MeshTessellate"]
        ),
        .executableTarget(
            name: "meshgeo",
            dependencies: [
                "SurfaceKit",
                "MeshTessellate",
                "MeshRender",
                "MeshBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share (the seeded generator). Internal, not API.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "SurfaceKitTests",
            dependencies: ["SurfaceKit", "TestSupport"]
        ),
        .testTarget(
            name: "MeshTessellateTests",
            dependencies: ["SurfaceKit", "MeshTessellate", "TestSupport"]
        ),
        .testTarget(
            name: "MeshRenderTests",
            dependencies: ["SurfaceKit", "MeshTessellate", "MeshRender", "TestSupport"]
        ),
        .testTarget(
            name: "MeshGeoCLITests",
            dependencies: ["meshgeo"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
