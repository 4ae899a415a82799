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
        // The live view's HTTP server (`meshgeo serve`); only MeshServe and meshgeo depend on it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
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
        // The live view: an HTTP server with a JSON API and a WebGL page (`meshgeo serve`).
        .target(
            name: "MeshServe",
            dependencies: [
                "SurfaceKit",
                "MeshTessellate",
                "MeshRender",
                "CSwiftRuntimeShims",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            // The page is compiled into the binary (no resource bundle to lose when it is installed).
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/viewer.js"), .embedInCode("Page/renderer.js"),
                .embedInCode("Page/shading.js"),
            ]
        ),
        .executableTarget(
            name: "meshgeo",
            dependencies: [
                "SurfaceKit",
                "MeshTessellate",
                "MeshRender",
                "MeshBench",
                "MeshServe",
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
        .testTarget(
            name: "MeshServeTests",
            dependencies: [
                "SurfaceKit", "MeshTessellate", "MeshRender", "MeshServe", "meshgeo",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            // The browser driver (Python, standard library only) run by the page tests.
            exclude: ["Browser"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
