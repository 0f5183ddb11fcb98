import { first } from './first';

export const outside = (): number => first();
