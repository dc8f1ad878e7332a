// The media type of a CAR (https://www.iana.org/assignments/media-types/application/vnd.ipld.car),
// as @ipld/car exports it.
export const contentType = 'application/vnd.ipld.car'
