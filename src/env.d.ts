/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Tile URL template of the base map, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png */
  readonly VITE_MAP_TILE_URL?: string;
  /** Attribution of that tile server (HTML). */
  readonly VITE_MAP_ATTRIBUTION?: string;
}
