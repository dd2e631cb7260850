// Baseline of the intake benchmark: the NestJS starter's hello-world endpoint (GET / -> "Hello World!")
// on the same HTTP platform (Express) and Node as intake-api, with Nest's defaults. Decorators are
// applied by hand so that this file runs without a TypeScript build.
import 'reflect-metadata';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

class AppService {
  getHello() {
    return 'Hello World!';
  }
}
Injectable()(AppService);

class AppController {
  constructor(appService) {
    this.appService = appService;
  }
  getHello() {
    return this.appService.getHello();
  }
}
Reflect.defineMetadata('design:paramtypes', [AppService], AppController);
Controller()(AppController);
Get()(AppController.prototype, 'getHello', Object.getOwnPropertyDescriptor(AppController.prototype, 'getHello'));

class AppModule {}
Module({ controllers: [AppController], providers: [AppService] })(AppModule);

const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
await app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
