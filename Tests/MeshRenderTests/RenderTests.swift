import MeshRender
import Testing
