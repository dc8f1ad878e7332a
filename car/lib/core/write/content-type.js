// Own file: the library gives it at import, and frames.js, where it belongs, loads the codec.
// The media type of a CAR (https://www.iana.org/assignments/media-types/application/vnd.ipld.car),
// as @ipld/car exports it.
export const contentType = 'application/vnd.ipld.car'
