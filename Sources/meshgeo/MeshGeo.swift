import ArgumentParser
@main struct MeshGeo: ParsableCommand {}
