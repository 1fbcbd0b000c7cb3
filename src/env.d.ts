/// <reference types="vite/client" />

// The base map is configured on the server (MAP_TILE_URL, MAP_PMTILES_FILE, MAP_STYLE) and
// read at run time (`registros/map/config`): nothing map-related is fixed at build.
