import ArgumentParser
import MeshTessellate
import SurfaceKit

/// `meshgeo sort`: `tessellate --sort bsp --space screen`, the triangles of a semi-transparent
/// layer in an order that draws correctly back to front.
struct Sort: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tessellate a mesh and write its screen-space triangles in exact back-to-front order.",
        discussion: """
            The same as 'tessellate --sort bsp --space screen': triangles that overlap on screen are \
            ordered by a BSP tree and split where they intersect or overlap in a cycle, so drawing \
            them in order shows the nearest surface everywhere. Geometry at or behind the eye is \
            clipped. Split pieces are interpolated in points space and keep their control face.
            """)

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @OptionGroup var tessellation: TessellationArguments

    @Flag(help: "Print the number of pieces that splitting added on standard error.")
    var verbose = false

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let document = try InputFile.document(input.input)
            let options = tessellation.options
            let points = try Tessellator.tessellate(document, options: options, space: .points)
            let (mesh, statistics) = try PainterSorter.sorted(
                mesh: points, geometry: document.geometry, mode: .bsp, space: .screen, maximumTriangles: tessellation.maxTriangles)
            try OutputFile.write(chunks: mesh.objChunks(), to: output.output)
            if verbose {
                StandardError.write(
                    "sort: \(statistics.clippedTriangles) triangles after clipping, \(statistics.addedPieces) pieces added by splitting, "
                        + "\(statistics.outputTriangles) written (\(statistics.overlapClusters) overlapping clusters, largest \(statistics.largestCluster))")
            }
        }
    }
}
