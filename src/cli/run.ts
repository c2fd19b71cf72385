// The bundle's entry when the CLI starts without the start-up snapshot (see bin/linkerd).
import { main } from './main.js';

void main(process.argv);
