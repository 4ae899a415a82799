// MeshRender: pictures of a mesh transform (SVG of the lit, painter-sorted triangles; PNG of the
// layer's content mapped through the mesh). See Docs/rendering.md.
