import ArgumentParser

@main
struct MeshGeo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meshgeo",
        abstract: "Tessellate, inspect and build mesh transforms: layers mapped onto smooth 3D surfaces.",
        discussion: """
            Meshes are mesh.json files (see Docs/mesh-json.md). Use '-' to read standard input. \
            Results go to standard output unless -o names a file, which is written atomically.
            Exit codes: 0 success, 64 bad usage, 65 invalid mesh data, 66 input cannot be read, \
            73 or 74 output cannot be written.
            """,
        subcommands: [
            Tessellate.self, Sort.self, Hit.self, Fit.self, Validate.self, Info.self, Identity.self, Example.self,
            Interpolate.self, Render.self, Bench.self, Serve.self,
        ]
    )
}
