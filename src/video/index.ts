// A film from a phone's frames (docs/video.md): the encoder and the captions.
export { DEFAULT_FILM_SIZE, encodeFilm, encoderPath, FilmError, frameName, type EncodeOptions, type Film, type FilmFrame } from './encoder.js';
export { readWebVtt, webVtt, type FilmStep } from './captions.js';
